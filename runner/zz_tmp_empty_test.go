package runner
import ("testing";"sort";"fmt")
func TestTmpEmpty(t *testing.T){ var out []string; for k,s:=range pkgVars(t){ if pkgRefusesEmpty(t,k,s){out=append(out,k)}}; sort.Strings(out); fmt.Println(out)}
