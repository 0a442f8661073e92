"""`python -m rusty.kernel -f CONNECTION_FILE`: what a kernel spec runs."""
from .kernel import launch

launch()
