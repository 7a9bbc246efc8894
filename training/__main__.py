"""``python -m training`` lists the steps that make the shipped learned chances."""

print(
    "training: python -m training.corpus | training.learn | training.calibration"
    "   (each takes --help)"
)
