// Package widgets is interactive controls for teaching in a notebook:
// sliders, a dropdown and an output area that Go code in the kernel reads
// and reacts to as a student moves them.
//
//	scale := widgets.FloatSlider("prior scale", 0.1, 10, 1)
//	family := widgets.Dropdown("family", "Normal", "StudentT")
//	widgets.Interact(func() {
//		fmt.Println(family.Value(), "prior with scale", scale.Value())
//		display.Show(plotting.Dist(draws(family.Value(), scale.Value()), "prior"))
//	}, scale, family)
//
// A widget shows as a cell's value or with display.Show; Value reads it
// from Go at any time; OnChange runs a func whenever the student changes
// it; Interact shows controls and an output area and reruns a func into
// the area at every change, its figures below as ordinary displays
// replaced in place, so that the notebook saves the latest one. Output
// makes an output area of one's own, and its Capture sends what a func
// prints and displays there.
//
// A control shows as a row: its description in full, then the control
// (a slider 60% of the row wide). The front-end cuts a control's own
// description at 148 px and has no style to widen it, so the row's
// description is a widget of its own (HTMLMath) beside it.
//
// # Protocol
//
// The widgets speak the Jupyter widget protocol over comms (package comm)
// in the version the widget front-end Debian ships for Notebook 6 speaks:
// jupyter-nbextension-jupyter-js-widgets 6.0.0, whose JavaScript is
// jupyter-js-widgets 2.1.4 (ipywidgets 6). That is widget protocol version
// 1, not the 2.0 of ipywidgets 7 and @jupyter-widgets/base:
//
//   - models and views live in the module "jupyter-js-widgets", version
//     "~2.1.4" (_model_module, _model_module_version, _view_module,
//     _view_module_version), named FloatSliderModel/FloatSliderView,
//     IntSliderModel, DropdownModel (its options are _options_labels, its
//     value a label) and OutputModel;
//   - a widget opens a comm to target "jupyter.widget" whose data is the
//     model's whole state. No widget here has binary state. The data also
//     carries the state under "state", with empty "buffer_paths", for
//     clients that read protocol 2's shape: nbclient 0.7 fails a notebook
//     with a KeyError without them, and the 2.1.4 front-end ignores them;
//   - the kernel changes state with {"method": "update", "state": {...}};
//     the front-end changes it with {"method": "backbone", "sync_data":
//     {...}} and asks for it with {"method": "request_state"}. An accepted
//     change is not echoed; a rejected or clamped one is answered with an
//     update carrying the value kept;
//   - a view is drawn when the comm says {"method": "display"}: the
//     front-end puts it in the widget area of the cell whose request is
//     that message's parent. The display bundle also carries ViewMIME
//     ({"model_id", "version_major": 1, "version_minor": 0}) for
//     front-ends and files that render from it, and an empty text/plain,
//     which Notebook 6 would otherwise print under the widget;
//   - the front-end opens a comm to "jupyter.widget.version"; the kernel
//     sends {"version": "~2.1.4"} and hears whether it agrees
//     (FrontendVersion).
//
// # Where a callback's output goes
//
// A handler runs in the interpreter while the kernel serves the client's
// comm_msg, so what it prints and displays has that comm_msg as parent.
// Notebook 6 routes such output to the cell that holds the slider; the
// Output widget routes it to itself instead: while its msg_id is that
// comm_msg's id, the front-end sends every message with that parent to
// the widget (kernel.output_callback_overrides_push). Capture sets msg_id
// around the func, and Interact clears the area (clear_output with wait)
// before each run, so a redrawn figure replaces the last one in place.
// This is what jupyter-js-widgets 2.1.4 supports; its manager has no
// renderer for ViewMIME in output areas, so an Output widget is the way to
// put a callback's output next to its controls. Updating a display made
// with display.NewHandle from a handler works too, in any front-end.
//
// Interact puts the figures its func shows (PNG or SVG bundles) in the
// cell instead, as displays with ids, shown on the first run and updated
// in place (update_display_data) at every change, after the capture ends:
// while the Output widget's msg_id is set it would take those messages
// too. Live, the figure redraws under the controls as before; saved, the
// notebook holds the latest figure as an ordinary image, which shows
// when it is opened without a kernel or a widget front-end (nbconvert,
// GitHub, Notebook 6 before the kernel starts), where the Output
// widget's contents are lost.
//
// A front-end without widgets (nbclient, a console) shows nothing for a
// widget, and no handler runs there.
package widgets
