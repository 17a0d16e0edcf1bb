"""The peer's two resource types: people, and the articles they write."""
from django.db import models


class Person(models.Model):
    name = models.CharField(max_length=100)

    class JSONAPIMeta:
        resource_name = "people"


class Article(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True, null=True)
    author = models.ForeignKey(Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="articles")

    class JSONAPIMeta:
        resource_name = "articles"
