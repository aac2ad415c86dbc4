// Package cu is a stand-in for gorgonia.org/cu v0.9.6 with the same
// signatures for what accel/cuda uses and bodies that panic: `make vet-cuda`
// substitutes it through a temporary go.work so that the cuda-tagged code
// type-checks and vets on machines without the CUDA toolkit (cu itself
// needs cuda.h and nvrtc.h to compile). It is its own module, outside
// gobayes builds.
package cu

import "unsafe"

type Device int
type DeviceAttribute int
type ContextFlags byte
type CUContext struct{ p uintptr }
type Module struct{ p uintptr }
type Function struct{ p uintptr }
type Stream struct{ p uintptr }
type DevicePtr uintptr

var NoStream = Stream{}

const (
	SchedAuto              ContextFlags    = 0
	ComputeCapabilityMajor DeviceAttribute = 75
	ComputeCapabilityMinor DeviceAttribute = 76
)

func NumDevices() (count int, err error)                  { panic("stub") }
func (dev Device) TotalMem() (bytes int64, err error)     { panic("stub") }
func (hmod Module) Unload() (err error)                   { panic("stub") }
func MemAlloc(bytesize int64) (dptr DevicePtr, err error) { panic("stub") }
func MemFree(dptr DevicePtr) (err error)                  { panic("stub") }
func MemcpyHtoD(dstDevice DevicePtr, srcHost unsafe.Pointer, ByteCount int64) (err error) {
	panic("stub")
}
func MemcpyDtoH(dstHost unsafe.Pointer, srcDevice DevicePtr, ByteCount int64) (err error) {
	panic("stub")
}
func (dev Device) Attributes(attrs ...DeviceAttribute) ([]int, error) { panic("stub") }
func (fn Function) LaunchAndSync(gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes int, stream Stream, kernelParams []unsafe.Pointer) error {
	panic("stub")
}
func (d Device) MakeContext(flags ContextFlags) (CUContext, error) { panic("stub") }
func (d Device) Name() (string, error)                             { panic("stub") }
func SetCurrentContext(ctx CUContext) (err error)                  { panic("stub") }
func LoadData(image string) (Module, error)                        { panic("stub") }
func (m Module) Function(name string) (Function, error)            { panic("stub") }
func MemsetD8(dstDevice DevicePtr, uc byte, N int64) (err error)   { panic("stub") }
func (fn Function) Launch(gridDimX, gridDimY, gridDimZ int, blockDimX, blockDimY, blockDimZ int, sharedMemBytes int, stream Stream, kernelParams []unsafe.Pointer) error {
	panic("stub")
}
