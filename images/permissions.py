"""The image library's permissions, spelled once (images/roles.py grants them; the
write services in articles check them through `articles.permissions`). Plain strings
and no imports: the settings read this module through `articles.permissions`."""

VIEW_IMAGE = "images.view_image"
ADD_IMAGE = "images.add_image"
CHANGE_IMAGE = "images.change_image"
DELETE_IMAGE = "images.delete_image"
