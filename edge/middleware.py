"""Writes the keys a response was marked with (edge.keys) in the header the edge
cache reads, on the responses shared caches may keep."""

from django.http import HttpRequest, HttpResponse

from .backends import edge_backend
from .keys import keys_of


class SurrogateKeysMiddleware:
    """Outside the page cache, which says who may keep a page (`public`,
    `s-maxage`): a page no shared cache may keep says no keys."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        keys = keys_of(response)
        if keys and "public" in response.get("Cache-Control", ""):
            response[edge_backend().header] = edge_backend().written(sorted(keys))
        return response
