"""A JSON:API service on djangorestframework-jsonapi (PyPI), which the client's tests start on a
loopback port to read and write through JSONAPIClient: a server nobody here wrote, with its own
idea of pagination, errors, includes and sparse fieldsets.

    python3 server.py SEED_ARTICLES

Listens on 127.0.0.1 on a free port, prints `PORT <n>` once it accepts connections, and serves
until it is stopped. The database is a SQLite file in a temporary directory, seeded with three
people and SEED_ARTICLES articles.
"""
import os
import sys
import tempfile

# Nothing written into the checkout (no __pycache__ beside the sources).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="jsonapi-client-tests",
    ALLOWED_HOSTS=["*"],
    ROOT_URLCONF=__name__,
    DATABASES={
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.path.join(tempfile.mkdtemp(prefix="drf-jsonapi-"), "peer.sqlite3"),
        }
    },
    INSTALLED_APPS=[
        "django.contrib.contenttypes",
        "django.contrib.auth",
        "rest_framework",
        "rest_framework_json_api",
        "library",
    ],
    MIDDLEWARE=[],
    USE_TZ=True,
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    REST_FRAMEWORK={
        "PAGE_SIZE": 10,
        "EXCEPTION_HANDLER": "rest_framework_json_api.exceptions.exception_handler",
        "DEFAULT_PAGINATION_CLASS": "rest_framework_json_api.pagination.JsonApiPageNumberPagination",
        "DEFAULT_PARSER_CLASSES": ("rest_framework_json_api.parsers.JSONParser",),
        "DEFAULT_RENDERER_CLASSES": ("rest_framework_json_api.renderers.JSONRenderer",),
        "DEFAULT_METADATA_CLASS": "rest_framework_json_api.metadata.JSONAPIMetadata",
        "DEFAULT_FILTER_BACKENDS": (
            "rest_framework_json_api.filters.QueryParameterValidationFilter",
            "rest_framework_json_api.filters.OrderingFilter",
        ),
        "DEFAULT_AUTHENTICATION_CLASSES": [],
        "DEFAULT_PERMISSION_CLASSES": [],
        "UNAUTHENTICATED_USER": None,
    },
)
django.setup()

from django.core.management import call_command
from django.urls import path, re_path
from rest_framework.routers import DefaultRouter
from rest_framework_json_api import serializers
from rest_framework_json_api.views import ModelViewSet, RelationshipView

from library.models import Article, Person


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["name"]


class ArticleSerializer(serializers.ModelSerializer):
    included_serializers = {"author": PersonSerializer}

    class Meta:
        model = Article
        fields = ["title", "body", "author"]

    def validate_title(self, value):
        if not value.strip():
            raise serializers.ValidationError("A title needs a word.")
        return value


class PersonViewSet(ModelViewSet):
    queryset = Person.objects.order_by("id")
    serializer_class = PersonSerializer
    ordering_fields = ["name"]


class ArticleViewSet(ModelViewSet):
    queryset = Article.objects.order_by("id")
    serializer_class = ArticleSerializer
    ordering_fields = ["title"]


class ArticleRelationshipView(RelationshipView):
    queryset = Article.objects.all()


router = DefaultRouter(trailing_slash=False)
router.register("people", PersonViewSet)
router.register("articles", ArticleViewSet)

urlpatterns = router.urls + [
    re_path(
        r"^articles/(?P<pk>[^/.]+)/(?P<related_field>\w+)$",
        ArticleViewSet.as_view({"get": "retrieve_related"}),
        name="article-related",
    ),
    re_path(
        r"^articles/(?P<pk>[^/.]+)/relationships/(?P<related_field>\w+)$",
        ArticleRelationshipView.as_view(),
        name="article-relationships",
    ),
]


def seed(articles):
    call_command("migrate", run_syncdb=True, verbosity=0)
    people = [Person.objects.create(name=name) for name in ["Ann", "Bo", "Cy"]]
    for index in range(1, articles + 1):
        Article.objects.create(
            title=f"Article {index}", body=f"Body of article {index}.", author=people[index % len(people)]
        )


def main():
    seed(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
    from wsgiref.simple_server import WSGIRequestHandler, make_server
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format, *args):
            pass

    server = make_server("127.0.0.1", 0, get_wsgi_application(), handler_class=QuietHandler)
    print(f"PORT {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
