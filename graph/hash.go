package graph

// Golden is SplitMix64's increment, 2^64 divided by the golden ratio (Steele, Lea, Flood.
// Fast splittable pseudorandom number generators. OOPSLA 2014).
const Golden = 0x9e3779b97f4a7c15

// Mix64 is the SplitMix64 finaliser of x + Golden: a fast bijective hash of 64 bits. The
// loader's generators and weights, the engines' sampled decisions and the verifiers' seeded
// choices all hash with it, so that every engine draws the same values from a seed.
func Mix64(x uint64) uint64 {
	x += Golden
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SplitMix64 is the SplitMix64 generator; its value is the state. The zero value is a valid
// stream (seed 0).
type SplitMix64 uint64

// Next returns the stream's next value.
func (s *SplitMix64) Next() uint64 {
	x := uint64(*s)
	*s += Golden
	return Mix64(x)
}
