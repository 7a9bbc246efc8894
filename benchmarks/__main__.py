"""``python -m benchmarks`` lists the benchmarks."""

print(
    "benchmarks: python -m benchmarks.engine | benchmarks.referee | benchmarks.agents"
    " | benchmarks.strength | benchmarks.memory"
    " | benchmarks.flips | benchmarks.versions"
    " | benchmarks.cluster | benchmarks.target_maps | benchmarks.viewer | benchmarks.ladder"
    "   (each takes --help)"
)
