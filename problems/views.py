from django.contrib.auth.decorators import login_required, permission_required
from django.shortcuts import render


@login_required
@permission_required("problems.author_problems", raise_exception=True)
def index(request):
    return render(request, "author/index.html")
