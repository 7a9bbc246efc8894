"""``python -m benchmarks`` lists the benchmarks."""

print(
    "benchmarks: python -m benchmarks.engine | benchmarks.referee | benchmarks.proxy"
    " | benchmarks.agents | benchmarks.memory | benchmarks.strength | benchmarks.target_maps"
    " | benchmarks.versions | benchmarks.tournament | benchmarks.cluster | benchmarks.viewer"
    " | benchmarks.ladder   (each takes --help)"
)
