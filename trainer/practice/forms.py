from datetime import date, datetime, timedelta
from typing import Any

from django import forms

from trainer.accounts.timezones import time_zone_names
from trainer.practice.models import LearnerProfile
from trainer.srs import learner_day

INTERVIEW_HORIZON = timedelta(days=2 * 365)
"""How far ahead an interview date may be: further is a typo (a year 9990), and a plan that long
says nothing the everyday schedule does not."""


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(
        label="Your time zone (days start at your midnight; every time is shown in it)",
        error_messages={
            "invalid_choice": "%(value)s is not a time zone name such as Europe/London."
        },
    )

    class Meta:
        model = LearnerProfile
        fields = [
            "scheduler",
            "timezone",
            "daily_new_limit",
            "daily_review_cap",
            "queue_order",
            "interview_date",
        ]
        labels = {
            "scheduler": "Scheduler",
            "daily_new_limit": "New problems per day",
            "daily_review_cap": "Most reviews per day",
            "queue_order": "Order of due reviews",
            "interview_date": "Interview date (optional: plans your reviews up to that day)",
        }
        # ISO dates: a date input shows and sends yyyy-mm-dd whatever the site's locale, and
        # refuses anything else (en-gb's dd/mm/yyyy would come back empty on the next save).
        widgets = {"interview_date": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})}

    def __init__(self, *args: Any, now: datetime, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.today = learner_day(now, self.instance.tz)
        timezone = self.fields["timezone"]
        assert isinstance(timezone, forms.ChoiceField)
        timezone.choices = [(name, name) for name in time_zone_names()]
        self.fields["interview_date"].widget.attrs.update(
            min=self.today.isoformat(), max=(self.today + INTERVIEW_HORIZON).isoformat()
        )

    def clean_daily_new_limit(self) -> int:
        value = self.cleaned_data["daily_new_limit"]
        if not 1 <= value <= 25:
            raise forms.ValidationError("Choose between 1 and 25 new problems a day.")
        return value

    def clean_daily_review_cap(self) -> int:
        value = self.cleaned_data["daily_review_cap"]
        if not 1 <= value <= 500:
            raise forms.ValidationError("Choose between 1 and 500 reviews a day.")
        return value

    def clean_interview_date(self) -> date | None:
        value = self.cleaned_data["interview_date"]
        if value is None:
            return value
        latest = self.today + INTERVIEW_HORIZON
        if value > latest:
            raise forms.ValidationError(
                f"Choose a date within two years, by {latest:%-d %B %Y}, or leave it empty."
            )
        if value < self.today and value != self.initial.get("interview_date"):
            raise forms.ValidationError(
                "That day has passed: choose today or a later day, or leave it empty."
            )
        return value
