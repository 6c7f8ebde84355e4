"""(placeholder until its owner lands it)"""
urlpatterns: list = []
