from django import forms

from trainer.practice.models import LearnerProfile


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
