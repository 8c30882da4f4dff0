from trainer.accounts.roles import is_instructor


def roles(request):
    return {"is_instructor": is_instructor(request.user)}
