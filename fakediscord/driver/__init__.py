"""The driver API tests (and the sandbox page) use, one class per kind of thing a test does: run the
bot (``running``), act as users with commands (``commands``) and components (``components``), post,
react and read messages (``messages``), and read what the bot sent (``traffic``)."""
