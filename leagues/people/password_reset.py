"""The password-reset mail, sent by the league jobs' outbox rather than inside the request (issue 47): the request
only writes a row for the address asked about, whether or not an account has it, so the page takes the same path
and the same time for both, and nobody learns from its timing which addresses have accounts. The worker then mails
the accounts that have that address (none for an unknown one), in the reader's language (docs/security.md,
"Mail")."""

from urllib.parse import urlsplit
from uuid import uuid4

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.utils.translation import override

from leagues.people import verification


class SitePasswordResetForm(PasswordResetForm):
    """Django's reset form, its mail in the reader's language: the one his messages are worded in when he chose
    it, else the page's."""

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ) -> None:
        with override(verification.language_of(context["user"])):
            super().send_mail(
                subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name
            )


def target(address: str, language: str) -> str:
    """The outbox row's target: the page's language, a key of this ask's own (each ask that passed the limits is
    one mail, as when it was sent in the request; rows never coalesce) and the address as typed."""
    return f"{language} {uuid4().hex} {address}"


def send(row_target: str) -> int:
    """The outbox job: mail a reset link to every active account with this address that can set a password (Django's
    rules, PasswordResetForm.get_users); how many were mailed (0 for an address the site does not know)."""
    language, _key, address = row_target.split(" ", 2)
    with override(language):
        form = SitePasswordResetForm(data={"email": address})
        if not form.is_valid():
            return 0
        users = list(form.get_users(form.cleaned_data["email"]))
        site = urlsplit(settings.SITE_URL)
        form.save(
            domain_override=site.netloc,
            use_https=site.scheme == "https",
            extra_email_context={"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL},
        )
    return len(users)
