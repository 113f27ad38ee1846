"""The permissions of people and their legal names, spelled once (the role matrix in
`articles.roles` grants them). Plain strings and no imports: the settings read this
module through `articles.permissions`."""

VIEW_PERSON = "identity.view_person"
ADD_PERSON = "identity.add_person"
CHANGE_PERSON = "identity.change_person"
# Person.Meta.permissions: identity officers see and edit protected legal names.
VIEW_LEGAL_NAME = "identity.view_legal_name"

# The group of identity officers (granted by the role matrix, articles.roles), whom
# repeated refusals by the gate are reported to.
IDENTITY_OFFICERS = "Identity officers"
