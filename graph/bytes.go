package graph

import "unsafe"

// Int64Bytes, Uint32Bytes and Int32Bytes view a slice's memory as bytes (machine byte order,
// no copy; nil for an empty slice). They serve the fingerprint and the .gwg cache writer,
// which hash and write the CSR arrays as they lie in memory. The view aliases s: do not
// modify either while the other is in use.
func Int64Bytes(s []int64) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8)
}

// Uint32Bytes views s as bytes; see Int64Bytes.
func Uint32Bytes(s []uint32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*4)
}

// Int32Bytes views s as bytes; see Int64Bytes.
func Int32Bytes(s []int32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*4)
}
