"""Reads a gobayes InferenceData Zarr store with xarray and compares every
array with the values, dims and shapes gobayes says it wrote.

usage: check_zarr.py STORE EXPECTED.json
EXPECTED.json: {group: {variable: {"dims": [...], "shape": [...],
"values": [... row-major ...]}}, "_coords": {dim: [labels]},
"_group_coords": {group: {dim: [labels]}}} (a group's own labels, as the
predictions group has for new rows). Exit status 0 when all agree.
"""
import json
import sys

import numpy as np
import xarray as xr


def main():
    store, expected_path = sys.argv[1], sys.argv[2]
    with open(expected_path) as f:
        expected = json.load(f)
    coords = expected.pop("_coords", {})
    group_coords = expected.pop("_group_coords", {})
    checked, failures = 0, []
    for group, variables in expected.items():
        ds = xr.open_zarr(store, group=group, consolidated=True)
        for name, want in variables.items():
            if name not in ds.variables:
                failures.append(f"{group}/{name}: missing (has {sorted(ds.variables)})")
                continue
            got = ds[name]
            if list(got.dims) != want["dims"]:
                failures.append(f"{group}/{name}: dims {list(got.dims)}, want {want['dims']}")
            if list(got.shape) != want["shape"]:
                failures.append(f"{group}/{name}: shape {list(got.shape)}, want {want['shape']}")
            vals = np.asarray(got.values, dtype=float).ravel()
            if not np.array_equal(vals, np.asarray(want["values"], dtype=float), equal_nan=True):
                failures.append(f"{group}/{name}: values differ")
            for dim in got.dims:  # labels where given, else the 0-based index
                coord = ds[dim].values
                want_coord = group_coords.get(group, {}).get(dim, coords.get(dim, np.arange(ds.sizes[dim])))
                if list(coord) != list(want_coord):
                    failures.append(f"{group}/{name}: coordinate {dim} is {list(coord)[:5]}…, want {list(want_coord)[:5]}…")
            checked += 1
    for f in failures:
        print("FAIL", f)
    print(f"xarray {xr.__version__}: {checked} arrays read, {len(failures)} failures")
    sys.exit(1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    main()
