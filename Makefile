# OpenBench builds engines with `make EXE=<path>`: build the release binary and copy it there.
EXE ?= ferrum
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release
	cp target/release/ferrum $(EXE)

clean:
	$(CARGO) clean
