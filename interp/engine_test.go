package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// The tests every interp.Engine passes, for the in-process Session.

func TestStreamsWhileRunning(t *testing.T) {
	enginetest.StreamsWhileRunning(t, newTestSession(t))
}

func TestCellReadsTypedInput(t *testing.T) {
	enginetest.CellReadsTypedInput(t, newTestSession(t))
}

func TestUnreadInputEndsWithItsCell(t *testing.T) {
	enginetest.UnreadInputEndsWithItsCell(t, newTestSession(t))
}

func TestReadWithoutInputFails(t *testing.T) {
	enginetest.ReadWithoutInputFails(t, newTestSession(t))
}

func TestInterruptWhileWaitingForInput(t *testing.T) {
	enginetest.InterruptWhileWaitingForInput(t, newTestSession(t))
}

func TestInterruptedWaitStopsTheCell(t *testing.T) {
	enginetest.InterruptedWaitStopsTheCell(t, newTestSession(t))
}

func TestWidgetRoundTrip(t *testing.T) {
	enginetest.WidgetRoundTrip(t, newTestSession(t))
}

func TestLateOutputReachesLastCell(t *testing.T) {
	enginetest.LateOutputReachesLastCell(t, newTestSession(t))
}

func TestLargePrintStreamsInChunks(t *testing.T) {
	enginetest.LargePrintStreamsInChunks(t, newTestSession(t))
}
