package tools
import ("testing";"context";"time";"fmt")
func BenchmarkDbg(b *testing.B){ r:=cachedRepo(b,"goroot",gorootFiles); repo,src:=openBench(b,r); ctx:=context.Background()
 reg,s:=Default(),&Session{Source:src}
 for round:=0; round<3; round++ {
 st:=time.Now(); for _,p:=range r.paths { repo.ReadFile(ctx,r.head,p) }; d1:=time.Since(st)
 st=time.Now(); for _,p:=range r.paths { reg.Call(ctx,PhaseMain,s,"file_read",fmt.Sprintf(`{"file_path":%q,"end_line":200}`,p)) }; d2:=time.Since(st)
 b.Logf("raw %v/op  tool %v/op", d1/time.Duration(len(r.paths)), d2/time.Duration(len(r.paths))) }
 for b.Loop(){} }
