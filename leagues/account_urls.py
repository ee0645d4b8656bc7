from django.urls import include, path

from leagues.people import account_views, views
from shitenno_site.tokens import views as token_views

urlpatterns = [
    path("sign-up/", views.sign_up, name="sign_up"),
    path("me/", account_views.account, name="account"),
    path("me/data/", account_views.my_data_page, name="my_data"),
    path("me/tokens/", token_views.tokens_page, name="tokens"),
    path("me/tokens/<int:pk>/revoke/", token_views.token_revoke_page, name="token_revoke"),
    path("me/delete/", account_views.account_delete_page, name="account_delete"),
    path("me/email/", account_views.email_change, name="email_change"),
    path("me/email/link/", account_views.email_link_again, name="email_link_again"),
    path("verify/<str:token>/", account_views.verify_email, name="verify_email"),
    path("password_reset/", account_views.SitePasswordResetView.as_view(), name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
