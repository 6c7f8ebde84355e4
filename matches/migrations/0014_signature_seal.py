"""Each scoresheet signature gets its seal (docs/SCORESHEET.md). The signatures already on record
are sealed here, with the secret of the day of the migration: from then on a rewrite of them is
caught, but the seal cannot vouch for what happened to them before."""

from django.db import migrations, models


def seal_existing(apps, schema_editor):
    from matches.scoresheet.hashing import seal, signature_message

    Signature = apps.get_model("matches", "Signature")
    for row in Signature.objects.using(schema_editor.connection.alias).filter(seal="").iterator():
        sealed = seal(signature_message(row))
        Signature.objects.using(schema_editor.connection.alias).filter(pk=row.pk).update(seal=sealed)


class Migration(migrations.Migration):
    dependencies = [("matches", "0013_field_heard_at")]

    operations = [
        migrations.AddField(
            model_name="signature",
            name="seal",
            field=models.CharField(
                blank=True, default="", editable=False, max_length=64, verbose_name="seal (HMAC-SHA256)"
            ),
        ),
        migrations.RunPython(seal_existing, migrations.RunPython.noop),
    ]
