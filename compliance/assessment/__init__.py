"""The risk assessment's content as pure data: what is signed, hashed and compared."""
