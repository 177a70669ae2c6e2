"""Training: distillation data from agent trajectories and a LoRA SFT recipe (paper 001, section 3.5)."""
