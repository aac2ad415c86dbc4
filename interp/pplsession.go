package interp

import (
	"reflect"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gobayes/gobayes/interp/symbols"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// pplPath is ppl's key in the symbol tables.
const pplPath = "github.com/gobayes/gobayes/ppl/ppl"

var modelType = reflect.TypeOf((*ppl.Model)(nil))

// pplSymbols binds the cells' ppl to session ms: every function of the
// symbol tables that returns a *ppl.Model (ppl.NewModel, ppl.GLM, a
// dataset's model) makes it a model of ms, so that its definitions and
// runs reach ms's hooks (this interpreter's cell context and output), and
// ppl.LastRun is ms's last run. Two sessions of one process so keep their
// runs and hooks apart, with no state of ppl's set for the process.
func pplSymbols(ms *ppl.Session) yaegi.Exports {
	out := yaegi.Exports{}
	for path, syms := range symbols.Symbols {
		for name, v := range syms {
			if v.Kind() != reflect.Func || !returnsModel(v.Type()) {
				continue
			}
			if out[path] == nil {
				out[path] = map[string]reflect.Value{}
			}
			out[path][name] = adopting(ms, v)
		}
	}
	if out[pplPath] == nil {
		out[pplPath] = map[string]reflect.Value{}
	}
	out[pplPath]["LastRun"] = reflect.ValueOf(func() *posterior.Posterior { return ms.LastRun() })
	return out
}

// returnsModel reports whether a function type has a *ppl.Model result.
func returnsModel(t reflect.Type) bool {
	for i := range t.NumOut() {
		if t.Out(i) == modelType {
			return true
		}
	}
	return false
}

// adopting is f with every *ppl.Model it returns adopted by ms.
func adopting(ms *ppl.Session, f reflect.Value) reflect.Value {
	t := f.Type()
	return reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		var res []reflect.Value
		if t.IsVariadic() {
			res = f.CallSlice(args)
		} else {
			res = f.Call(args)
		}
		for _, r := range res {
			if r.Type() == modelType && !r.IsNil() {
				ms.Adopt(r.Interface().(*ppl.Model))
			}
		}
		return res
	})
}
