from datetime import timedelta

from django import forms
from django.utils import timezone

from trainer.practice.models import LearnerProfile
from trainer.srs.interview import MAX_DAYS_AHEAD


class ProfileForm(forms.ModelForm):
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
            "timezone": "Your time zone (days start at your midnight)",
            "daily_new_limit": "New problems per day",
            "daily_review_cap": "Most reviews per day",
            "queue_order": "Order of due reviews",
            "interview_date": "Interview date (optional: plans your reviews up to that day)",
        }
        widgets = {"interview_date": forms.DateInput(attrs={"type": "date"})}

    def clean_daily_new_limit(self):
        value = self.cleaned_data["daily_new_limit"]
        if not 1 <= value <= 25:
            raise forms.ValidationError("Choose between 1 and 25 new problems a day.")
        return value

    def clean_daily_review_cap(self):
        value = self.cleaned_data["daily_review_cap"]
        if not 1 <= value <= 500:
            raise forms.ValidationError("Choose between 1 and 500 reviews a day.")
        return value

    def clean_interview_date(self):
        value = self.cleaned_data["interview_date"]
        # A day of slack either way: the learner's today may differ from the server's.
        latest = timezone.localdate() + timedelta(days=MAX_DAYS_AHEAD - 1)
        if value is not None and value > latest:
            raise forms.ValidationError(
                f"Choose an interview date within {MAX_DAYS_AHEAD // 366} years from today "
                f"(by {latest:%d %B %Y}), or leave it empty."
            )
        return value
