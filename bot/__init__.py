"""The running Discord application: config, the bot, storage, the table service."""
