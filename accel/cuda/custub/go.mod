module gorgonia.org/cu

go 1.22
