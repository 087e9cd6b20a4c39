#include "hxtools/text_table.hpp"

#include <algorithm>
#include <utility>

namespace hxtools {

TextTable::TextTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  for (std::string& cell : cells) {
    if (cell.empty()) cell = "-";
  }
  rows_.push_back({std::move(cells), {}});
}

void TextTable::add_note(std::string note) {
  if (!rows_.empty()) rows_.back().notes.push_back(std::move(note));
}

void TextTable::print(std::ostream& out, const std::string& indent) const {
  std::vector<size_t> widths;
  for (const std::string& header : headers_) widths.push_back(header.size());
  for (const Row& row : rows_) {
    for (size_t i = 0; i < row.cells.size(); ++i) {
      widths[i] = std::max(widths[i], row.cells[i].size());
    }
  }
  print_cells(out, indent, headers_, widths);
  for (const Row& row : rows_) {
    print_cells(out, indent, row.cells, widths);
    for (const std::string& note : row.notes) out << indent << "    " << note << '\n';
  }
}

void TextTable::print_cells(std::ostream& out, const std::string& indent,
                            const std::vector<std::string>& cells,
                            const std::vector<size_t>& widths) const {
  std::string line = indent;
  for (size_t i = 0; i < cells.size(); ++i) {
    line += cells[i];
    if (i + 1 < cells.size()) line += std::string(widths[i] - cells[i].size() + 2, ' ');
  }
  out << line << '\n';
}

}  // namespace hxtools
