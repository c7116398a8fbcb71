# OpenBench builds engines with `make -j EXE=<name> [CC=...] [EVALFILE=...]` in the repository
# root and takes the binary from <name>. `make` alone builds ./sanqi; `make EXE=/some/path`
# puts the release binary there. CC, CXX and EVALFILE are accepted and ignored (sanqi is Rust
# and has no network file). The binary is the one `cargo build --release` makes, so its
# `bench` signature is the same.

EXE ?= sanqi
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

ifeq ($(OS),Windows_NT)
	BIN := $(TARGET_DIR)/release/sanqi.exe
	OUT := $(if $(filter %.exe,$(EXE)),$(EXE),$(EXE).exe)
else
	BIN := $(TARGET_DIR)/release/sanqi
	OUT := $(EXE)
endif

.PHONY: all clean

all:
	$(CARGO) build --release -p sanqi --bin sanqi
	cp "$(BIN)" "$(OUT)"

clean:
	$(CARGO) clean
