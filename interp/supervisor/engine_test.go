package supervisor

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// The tests every interp.Engine passes, for a session in the worker: a
// cell's output and standard input are relayed by the supervisor.

func TestStreamsWhileRunning(t *testing.T) {
	enginetest.StreamsWhileRunning(t, newTestSupervised(t, 1<<30))
}

func TestCellReadsTypedInput(t *testing.T) {
	enginetest.CellReadsTypedInput(t, newTestSupervised(t, 1<<30))
}

func TestUnreadInputEndsWithItsCell(t *testing.T) {
	enginetest.UnreadInputEndsWithItsCell(t, newTestSupervised(t, 1<<30))
}

func TestReadWithoutInputFails(t *testing.T) {
	enginetest.ReadWithoutInputFails(t, newTestSupervised(t, 1<<30))
}

func TestInterruptWhileWaitingForInput(t *testing.T) {
	enginetest.InterruptWhileWaitingForInput(t, newTestSupervised(t, 1<<30))
}

func TestInterruptedWaitStopsTheCell(t *testing.T) {
	enginetest.InterruptedWaitStopsTheCell(t, newTestSupervised(t, 1<<30))
}

func TestWidgetRoundTrip(t *testing.T) {
	enginetest.WidgetRoundTrip(t, newTestSupervised(t, 1<<30))
}

func TestLateOutputReachesLastCell(t *testing.T) {
	enginetest.LateOutputReachesLastCell(t, newTestSupervised(t, 1<<30))
}

func TestLargePrintStreamsInChunks(t *testing.T) {
	enginetest.LargePrintStreamsInChunks(t, newTestSupervised(t, 1<<30))
}
