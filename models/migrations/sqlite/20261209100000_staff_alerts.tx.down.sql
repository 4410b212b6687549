DROP TABLE alert_preferences;
