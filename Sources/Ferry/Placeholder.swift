// Ferry
