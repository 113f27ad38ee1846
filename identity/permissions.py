"""The permissions of people and their legal names, spelled once (identity/roles.py
grants them). Plain strings and no imports: the settings read this module through
`articles.permissions`."""

VIEW_PERSON = "identity.view_person"
ADD_PERSON = "identity.add_person"
CHANGE_PERSON = "identity.change_person"
# Person.Meta.permissions: identity officers see and edit protected legal names.
VIEW_LEGAL_NAME = "identity.view_legal_name"
