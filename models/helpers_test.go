package models_test

import (
	"log/slog"
	"reflect"
)

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func bunType(m any) reflect.Type { return reflect.TypeOf(m).Elem() }
