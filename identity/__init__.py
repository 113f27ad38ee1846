"""Protected identities: the people named in stories, the legal names some of them
must never be published under, and the gate that keeps those names out of public view.

- `models`: people, the names they go by, and the legal spellings of those whose
  identity is protected, in a table of their own (read through `legal` only);
- `text`: reading text as a reader meets it, and finding a spelling in it (pure text,
  no database);
- `exposure`: which fields of a row are public, and which are printed together;
- `gate`: the gate that refuses an edit, and its errors;
- `cache`: each thread's gate for the people as they now stand;
- `redaction`: the admin's pseudonyms for users who may not read legal names.
"""
