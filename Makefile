# OpenBench builds engines with `make EXE=<path>`: build the release binary and copy it there.
EXE ?= ferrum
CARGO ?= cargo

# `make release`: one binary per x86-64 microarchitecture level, named after it. Each level has
# its own target directory, so building one does not throw away another's build.
LEVELS := x86-64 x86-64-v2 x86-64-v3
RELEASES := $(addprefix ferrum-,$(LEVELS))

.PHONY: all release clean $(RELEASES)

all:
	$(CARGO) build --release
	cp target/release/ferrum $(EXE)

release: $(RELEASES)

# RUSTFLAGS replaces the x86-64-v2 default of .cargo/config.toml.
$(RELEASES): ferrum-%:
	RUSTFLAGS="-C target-cpu=$*" $(CARGO) build --release --bin ferrum --target-dir target/$*
	cp target/$*/release/ferrum $@

clean:
	$(CARGO) clean
	rm -f $(RELEASES)
