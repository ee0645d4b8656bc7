# A push device is looked up by its session at every sign-in, sign-out and sweep (issue 47, finding 1).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0004_workers_delivery_attempts'),
    ]

    operations = [
        migrations.AlterField(
            model_name='pushsubscription',
            name='session_key',
            field=models.CharField(blank=True, db_index=True, default='', help_text='The session that turned push on; the device goes with it.', max_length=40),
        ),
    ]
