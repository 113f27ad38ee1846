"""Writes the keys a response was marked with (edge.keys) in the header the edge
cache reads, on the responses shared caches may keep, when there is an edge.

Without one, no header: the keys name the rows a page shows (a person's among
them), and only an edge, which drops them before the reader (Varnish's VCL,
Fastly and Cloudflare by default), should read them."""

from django.http import HttpRequest, HttpResponse

from .backends import edge_backend
from .keys import page_keys


class SurrogateKeysMiddleware:
    """Outside the page cache, which says who may keep a page (`public`,
    `s-maxage`): a page no shared cache may keep says no keys."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        backend = edge_backend()
        if not backend or "public" not in response.get("Cache-Control", ""):
            return response
        keys = page_keys(request, response)
        if keys:
            response[backend.header] = backend.written(sorted(keys))
        return response
