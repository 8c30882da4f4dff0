import pytest


def test_it_signs_up_and_logs_in(client, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newperson",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response.status_code == 302
    user = django_user_model.objects.get(username="newperson")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert not user.is_staff
    assert not user.has_perm("problems.author_problems")


def _sign_up(client, **extra):
    return client.post(
        "/accounts/signup/",
        {
            "username": "newperson",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
            **extra,
        },
    )


def test_it_keeps_the_time_zone_the_browser_reported(client, django_user_model):
    page = client.get("/accounts/signup/").content.decode()
    assert 'type="hidden" name="timezone"' in page and "data-detect-timezone" in page
    assert _sign_up(client, timezone="America/Sao_Paulo").status_code == 302
    user = django_user_model.objects.get(username="newperson")
    assert user.learner_profile.timezone == "America/Sao_Paulo"


def test_it_falls_back_to_utc_for_a_zone_it_does_not_know(client, django_user_model):
    assert _sign_up(client, timezone="Mars/Olympus_Mons").status_code == 302
    assert django_user_model.objects.get(username="newperson").learner_profile.timezone == "UTC"


def test_it_falls_back_to_utc_without_javascript(client, django_user_model):
    assert _sign_up(client).status_code == 302
    assert django_user_model.objects.get(username="newperson").learner_profile.timezone == "UTC"


def test_it_rejects_a_weak_password(client, django_user_model):
    response = client.post(
        "/accounts/signup/", {"username": "newperson", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert b"too short" in response.content
    assert not django_user_model.objects.filter(username="newperson").exists()


def test_it_rejects_a_taken_username(client, learner, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "learner",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response.status_code == 200
    assert b"already exists" in response.content
    assert django_user_model.objects.filter(username="learner").count() == 1


def test_it_sends_a_logged_in_user_home(client, learner):
    client.force_login(learner)
    assert client.get("/accounts/signup/")["Location"] == "/"


@pytest.mark.parametrize("name", ["roß", "ROSS", "Ross", "ｒｏｓｓ", "ⓡoss"])
def test_it_refuses_a_name_that_reads_as_an_existing_one(client, django_user_model, name):
    """Names are compared after NFKC and case folding (trainer/accounts/usernames.py), as the
    log-in limiter counts them: `roß` beside `ross` would share the victim's failure count."""
    django_user_model.objects.create_user("ross", password="the victim's 1")
    response = _sign_up(client, username=name)
    assert response.status_code == 200
    assert b"already exists" in response.content
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["ross"]


def test_it_refuses_an_existing_name_in_another_spelling_the_other_way_round(
    client, django_user_model
):
    django_user_model.objects.create_user("Roß", password="the victim's 1")
    assert _sign_up(client, username="ross").status_code == 200
    assert not django_user_model.objects.filter(username="ross").exists()
