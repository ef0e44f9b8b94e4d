"""What every long search shares: splitting, running, checkpointing, progress."""
