package main

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"syscall"
	"time"
)

// median returns the median of times.
func median(times []time.Duration) time.Duration {
	s := slices.Clone(times)
	slices.Sort(s)
	return s[len(s)/2]
}

// timed runs f and returns the wall time and the CPU time it took.
func timed(f func() (any, error)) (wall, cpu time.Duration, err error) {
	startCPU, start := cpuTime(), time.Now()
	_, err = f()
	return time.Since(start), cpuTime() - startCPU, err
}

// cpuTime is the user and system time of this process and of its children
// that have been waited for (the git processes).
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var u syscall.Rusage
		if err := syscall.Getrusage(who, &u); err == nil {
			total += time.Duration(u.Utime.Nano() + u.Stime.Nano())
		}
	}
	return total
}

// memory is what one run of a step cost.
type memory struct {
	allocated uint64 // bytes allocated during the run (TotalAlloc delta)
	peak      uint64 // highest sampled heap above the starting heap
	retained  uint64 // heap still live after the run and a GC
}

// heapObjects reads the bytes in heap objects (live and not yet swept).
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// measure runs f once, sampling the heap every 100µs. f's result is kept
// alive until the retained heap is read.
func measure(f func() (any, error)) (memory, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	base := heapObjects()
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Go(func() {
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			peak = max(peak, heapObjects())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	result, err := f()
	close(done)
	wg.Wait()
	peak = max(peak, heapObjects())
	runtime.ReadMemStats(&after)
	runtime.GC()
	m := memory{allocated: after.TotalAlloc - before.TotalAlloc, peak: sub(peak, base), retained: sub(heapObjects(), base)}
	runtime.KeepAlive(result)
	return m, err
}

// sub is a-b floored at zero.
func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}
