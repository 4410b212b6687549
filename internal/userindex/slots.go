package userindex

// slotTable finds a user's slot by id: a table indexed by id while the ids
// are dense, as a database sequence makes them (4 bytes a user, where a
// map takes about 44), and a map once they are not.
type slotTable struct {
	dense  []int32 // the slot plus one, by id; 0 for none
	sparse map[int64]int32
}

// denseRoom is how far past four ids per user the table may grow before
// it turns into a map.
const denseRoom = 1 << 16

func (t *slotTable) get(id int64) (int32, bool) {
	if t.sparse != nil {
		s, ok := t.sparse[id]
		return s, ok
	}
	if id < 0 || id >= int64(len(t.dense)) || t.dense[id] == 0 {
		return 0, false
	}
	return t.dense[id] - 1, true
}

func (t *slotTable) set(id int64, s int32, live int) {
	if t.sparse == nil && id >= 0 && id < 4*int64(live)+denseRoom {
		for int64(len(t.dense)) <= id {
			t.dense = append(t.dense, 0)
		}
		t.dense[id] = s + 1
		return
	}
	if t.sparse == nil {
		t.sparse = make(map[int64]int32, len(t.dense))
		for id, s := range t.dense {
			if s != 0 {
				t.sparse[int64(id)] = s - 1
			}
		}
		t.dense = nil
	}
	t.sparse[id] = s
}

func (t *slotTable) del(id int64) {
	if t.sparse != nil {
		delete(t.sparse, id)
	} else if id >= 0 && id < int64(len(t.dense)) {
		t.dense[id] = 0
	}
}
