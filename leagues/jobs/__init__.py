"""The league jobs: the outbox a change writes its jobs into (outbox), the nightly repair (repair) and the Celery
tasks that run them (tasks, named leagues.tasks.* as they always were)."""
