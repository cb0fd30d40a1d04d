"""Discord extensions: thin adapters from slash commands and components to the bot services."""
