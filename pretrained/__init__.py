"""all-MiniLM-L6-v2, run offline through our own attention core."""
