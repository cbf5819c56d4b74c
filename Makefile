# Convenience targets. The README's two set-up commands are scripts/demo.sh and scripts/test.sh.
.PHONY: test demo bench callgrind

test:
	scripts/test.sh

demo:
	scripts/demo.sh

# SoundStage against raw OpenAL C, side by side, in release mode (not part of the tests).
bench:
	swift build -c release --product soundstage-bench
	.build/release/soundstage-bench

# Instruction counts of small fixed workloads under valgrind (stable on a noisy machine).
callgrind:
	Benchmarks/callgrind.sh
