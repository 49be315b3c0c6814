# OpenBench builds engines with `make EXE=<path>`: build the release binary and copy it there.
EXE ?= ferrum
CARGO ?= cargo

# `make release`: one binary per x86-64 microarchitecture level, named after it. Each level has
# its own target directory, so building one does not throw away another's build.
LEVELS := x86-64 x86-64-v2 x86-64-v3
RELEASES := $(addprefix ferrum-,$(LEVELS))

.PHONY: all release dist clean $(RELEASES)

all:
	$(CARGO) build --release
	cp target/release/ferrum $(EXE)

release: $(RELEASES)

# RUSTFLAGS replaces the x86-64-v2 default of .cargo/config.toml.
$(RELEASES): ferrum-%:
	RUSTFLAGS="-C target-cpu=$*" $(CARGO) build --release --bin ferrum --target-dir target/$*
	cp target/$*/release/ferrum $@

# `make dist`: the release archives for Windows, Linux x86-64 and Linux ARM in dist/, with
# SHA256SUMS (packaging/dist.sh; it says which Debian packages are missing and installs nothing).
dist:
	bash packaging/dist.sh

clean:
	$(CARGO) clean
	rm -rf $(RELEASES) dist
