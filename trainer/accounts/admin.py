"""Django's user admin, with the sign-up form's rule on names: none may read as another
account's (`trainer.accounts.usernames`)."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User

from trainer.accounts.forms import NameReadsAsNoOtherMixin


class UserCreationFormForAdmin(NameReadsAsNoOtherMixin, AdminUserCreationForm):
    pass


class UserChangeFormForAdmin(NameReadsAsNoOtherMixin, UserChangeForm):
    pass


class UserAdmin(DjangoUserAdmin):
    add_form = UserCreationFormForAdmin
    form = UserChangeFormForAdmin


admin.site.unregister(User)
admin.site.register(User, UserAdmin)
