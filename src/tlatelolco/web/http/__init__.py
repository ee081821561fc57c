"""HTTP: the JSON API, the rules pages, errors, request limits and the guarded protocol."""
