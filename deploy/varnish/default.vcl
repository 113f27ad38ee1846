# Varnish in front of the app servers: public pages kept by their surrogate keys
# and purged by them (edge/). Needs the xkey module (Debian: varnish-modules).
# EDGE_PURGE_URLS on the app servers names this server's address.
vcl 4.1;

import xkey;

backend app {
    .host = "127.0.0.1";
    .port = "8000";
}

# Only the app servers and workers may purge: this machine, and the private
# networks they run on (docker-compose.yml's); narrow it to yours.
acl purgers {
    "127.0.0.1";
    "::1";
    "10.0.0.0"/8;
    "172.16.0.0"/12;
    "192.168.0.0"/16;
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (req.http.xkey-purge) {
            set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        } elsif (req.http.xkey-softpurge) {
            set req.http.n-gone = xkey.softpurge(req.http.xkey-softpurge);
        } else {
            return (synth(400, "No keys to purge"));
        }
        return (synth(200, "Purged " + req.http.n-gone));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The newsroom, the partners' API (answered per key) and previews are never
    # kept; nor is anything asked with a session (editors).
    if (req.url ~ "^/(admin|api|i18n)/" || req.url ~ "/preview/") {
        return (pass);
    }
    if (req.http.Cookie ~ "(^|;\s*)sessionid=") {
        return (pass);
    }
    # A reader's other cookies (the CSRF token, the language) change no public
    # page: the edition is in the address.
    unset req.http.Cookie;
    return (hash);
}

sub vcl_backend_response {
    # Kept only what the app marked with its keys and allows shared caches to
    # keep (s-maxage); anything else is fetched for each reader.
    if (!beresp.http.xkey || beresp.http.Cache-Control !~ "public" || beresp.http.Set-Cookie) {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # A soft purge serves the stale page while the new one is fetched.
    set beresp.grace = 1h;
}

sub vcl_deliver {
    if (obj.hits > 0) {
        set resp.http.X-Cache = "hit";
    } else {
        set resp.http.X-Cache = "miss";
    }
    unset resp.http.xkey;
    unset resp.http.n-gone;
}
