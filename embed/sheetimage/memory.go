package sheetimage

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// MemoryBudget is what PDFium's linear memories may hold together. Each
// grow asks it first; a grow it refuses fails inside PDFium as an
// allocation failure, so the page fails (ErrPage) and nothing else does.
type MemoryBudget struct {
	// Ceiling is the process's memory ceiling in bytes (scan.memory_limit_mb):
	// the renders' memory plus the Go heap's live bytes stay under it. Zero:
	// no ceiling beyond each instance's own maximum.
	Ceiling uint64
	// Changed, if set, is told the renders' total after every change
	// (serve lowers the Go runtime's soft limit by it).
	Changed func(inUse uint64)

	mu    sync.Mutex
	inUse atomic.Uint64
}

// InUse is the bytes PDFium's linear memories hold now.
func (b *MemoryBudget) InUse() uint64 {
	if b == nil {
		return 0
	}
	return b.inUse.Load()
}

// take counts n more bytes, unless they would pass the ceiling; force
// counts them regardless (an instance's initial memory, which wazero
// cannot do without).
func (b *MemoryBudget) take(n uint64, force bool) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	total := b.inUse.Load() + n
	if !force && b.Ceiling > 0 && total+heapLive() > b.Ceiling {
		return false
	}
	b.inUse.Store(total)
	if b.Changed != nil {
		b.Changed(total)
	}
	return true
}

func (b *MemoryBudget) give(n uint64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	total := b.inUse.Load() - n
	b.inUse.Store(total)
	if b.Changed != nil {
		b.Changed(total)
	}
}

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
var liveMu sync.Mutex

// heapLive is the bytes the last collection found live in the Go heap,
// read without stopping the world.
func heapLive() uint64 {
	liveMu.Lock()
	defer liveMu.Unlock()
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return liveSample[0].Value.Uint64()
}

// allocator gives each PDFium instance a linear memory outside the Go
// heap (where the platform allows; see memory_unix.go), drawn from budget.
// wazero's own grows the memory by append: every grow copies the whole
// memory into a new slice, and the old ones stay until a collection, so a
// render that reached 1 GiB held several GiB of RSS on the way.
func allocator(budget *MemoryBudget) experimental.MemoryAllocator {
	if !reservable {
		return nil
	}
	return experimental.MemoryAllocatorFunc(func(_, maxBytes uint64) experimental.LinearMemory {
		return &linearMemory{budget: budget, max: maxBytes}
	})
}

// linearMemory is one instance's memory: its maximum reserved as address
// space at the first grow, pages committed only as PDFium touches them,
// and given back to the system when the instance closes. The reservation
// itself is kept for the next instance rather than unmapped: an instance
// killed for taking too long is closed while its last instructions may
// still run, and they must find the memory mapped (zero pages now), not
// a hole that faults the whole process.
type linearMemory struct {
	budget *MemoryBudget
	max    uint64
	buf    []byte // the whole reservation
	size   uint64
}

func (m *linearMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if m.buf == nil {
		buf, err := reservations.get(m.max)
		if err != nil {
			return nil
		}
		m.buf = buf
	}
	if size > m.size {
		// The first call is the module's declared minimum (PDFium's
		// static data, about 18 MiB): refusing it fails the instance in a
		// way wazero does not expect, so it is granted and counted. The
		// budget decides every grow after it.
		if !m.budget.take(size-m.size, m.size == 0) {
			return nil
		}
		m.size = size
	}
	return m.buf[:size:size]
}

func (m *linearMemory) Free() {
	if m.buf != nil {
		reservations.put(m.buf[:cap(m.buf)], m.size)
		m.buf = nil
	}
	m.budget.give(m.size)
	m.size = 0
}

// reservations are address ranges kept between instances, by size.
var reservations reservationPool

type reservationPool struct {
	mu   sync.Mutex
	free map[uint64][][]byte
}

func (p *reservationPool) get(n uint64) ([]byte, error) {
	p.mu.Lock()
	if list := p.free[n]; len(list) > 0 {
		buf := list[len(list)-1]
		p.free[n] = list[:len(list)-1]
		p.mu.Unlock()
		return buf, nil
	}
	p.mu.Unlock()
	return reserve(n)
}

// put returns a reservation whose first used bytes were touched: their
// pages go back to the system and read as zeros when used again.
func (p *reservationPool) put(buf []byte, used uint64) {
	discard(buf[:min(used, uint64(len(buf)))])
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free == nil {
		p.free = map[uint64][][]byte{}
	}
	p.free[uint64(len(buf))] = append(p.free[uint64(len(buf))], buf)
}
