"""Webhooks: partners' HTTPS endpoints told of the events they chose, each
delivery signed in Standard Webhooks' scheme (`signing`), posted by a task after
commit (`sending`), tried again with backoff for a day (`deliveries`)."""
