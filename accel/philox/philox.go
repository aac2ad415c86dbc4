package philox

// Constants of Philox4x32 (Salmon et al. 2011, table 2; Random123's
// philox.h): the round multipliers and the Weyl key increments.
const (
	m0 = 0xD2511F53
	m1 = 0xCD9E8D57
	w0 = 0x9E3779B9 // golden ratio
	w1 = 0xBB67AE85 // sqrt(3) - 1
)

// Block is Philox4x32-10: ten rounds of the Philox S-P network over the
// counter ctr under key. It is a bijection of ctr for each key.
func Block(ctr [4]uint32, key [2]uint32) [4]uint32 {
	c0, c1, c2, c3 := block(ctr[0], ctr[1], ctr[2], ctr[3], key[0], key[1])
	return [4]uint32{c0, c1, c2, c3}
}

// block is Block on the counter's and the key's words, written in the
// device code's subset of Go: cmd/genops translates it into CUDA C.
//
//gb:cuda gb_philox4x32_10
func block(c0, c1, c2, c3, k0, k1 uint32) (uint32, uint32, uint32, uint32) {
	for r := 0; r < 10; r++ {
		if r > 0 {
			k0 += w0
			k1 += w1
		}
		c0, c1, c2, c3 = round(c0, c1, c2, c3, k0, k1)
	}
	return c0, c1, c2, c3
}

// round is one round of the S-P network: two 32×32→64-bit products
// (bits.Mul32's high and low words), their high words mixed with the
// other two words and the round key.
//
//gb:cuda gb_philox_round
func round(c0, c1, c2, c3, k0, k1 uint32) (uint32, uint32, uint32, uint32) {
	p0 := uint64(m0) * uint64(c0)
	p1 := uint64(m1) * uint64(c2)
	return uint32(p1>>32) ^ c1 ^ k0, uint32(p1), uint32(p0>>32) ^ c3 ^ k1, uint32(p0)
}

// Stream is the sequence of numbers of one (seed, chain, step): blocks of
// Block with counter (i, step, chain low, chain high) for i = 0, 1, …
// under the key (seed low, seed high). It is a small value; copying it
// copies its position.
type Stream struct {
	key  [2]uint32
	ctr  [4]uint32
	buf  [4]uint32
	next int // index of the next unused word of buf; 4 when empty
}

// New returns the stream of chain at step under seed.
func New(seed uint64, chain, step uint64) Stream {
	return Stream{
		key:  [2]uint32{uint32(seed), uint32(seed >> 32)},
		ctr:  [4]uint32{0, uint32(step), uint32(chain), uint32(chain >> 32)},
		next: 4,
	}
}

// Key is the Block key of a seed, as New uses it.
func Key(seed uint64) [2]uint32 { return [2]uint32{uint32(seed), uint32(seed >> 32)} }

// NewAt is the stream of (seed, chain, step) starting at block index i
// rather than 0 (New is NewAt(…, 0)): a caller that takes block 0 itself
// draws further numbers from NewAt(…, 1).
func NewAt(seed uint64, chain, step uint64, i uint32) Stream {
	s := New(seed, chain, step)
	s.ctr[0] = i
	return s
}

// Uint32 returns the next 32 random bits.
func (s *Stream) Uint32() uint32 {
	if s.next == 4 {
		s.buf = Block(s.ctr, s.key)
		s.ctr[0]++
		s.next = 0
	}
	u := s.buf[s.next]
	s.next++
	return u
}

// Uint64 returns the next 64 random bits (two words, the first high).
func (s *Stream) Uint64() uint64 {
	hi := uint64(s.Uint32())
	return hi<<32 | uint64(s.Uint32())
}

// Uniform returns a uniform variate on the open interval (0, 1) with 53
// random bits (two words): never 0, so its logarithm is finite.
func (s *Stream) Uniform() float64 {
	return Float64(s.Uint64())
}

// Float64 maps 64 random bits to (0, 1): the top 53 bits, offset by half
// a unit so that neither end is reached.
//
//gb:cuda gb_philox_float64
func Float64(u uint64) float64 {
	return (float64(u>>11) + 0.5) * (1.0 / (1 << 53))
}

// Float32Bits maps 32 random bits to (0, 1) with 32 bits of resolution:
// enough for a Metropolis acceptance test, at half the words of Uniform.
//
//gb:cuda gb_philox_float32bits
func Float32Bits(u uint32) float64 {
	return (float64(u) + 0.5) * (1.0 / (1 << 32))
}
